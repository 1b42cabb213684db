export const PLAN_IDS = ['free', 'tier1', 'tier2', 'tier3', 'tier4'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export interface Plan {
  id: PlanId;
  name: string;
  /** Usage tokens per period; every authenticated request and every successful delivery spends one. */
  usageLimit: number;
  usagePeriod: 'day' | 'month';
  requestsPerMinute: number;
  /**
   * Alert rules without addresses that hear every wallet (twap_lifecycle, ledger_update, liquidation,
   * large_market_order): each can match any event on the exchange, so they are what a plan pays for.
   */
  exchangeWideRules: number;
  /** Wallet addresses summed over all the consumer's rules (an address in two rules counts twice). */
  ruleAddresses: number;
  /** Whether the plan may open websocket streams (`GET /ws`). */
  websocketStreams: boolean;
  /** Websocket connections one consumer may hold open at once, over every api process. */
  websocketConnections: number;
  /** Subscriptions one websocket connection may hold at once. */
  websocketSubscriptions: number;
}

/** the API contract "Plans"; Free's rate limit is the design's 10 requests a minute. */
export const PLANS: Record<PlanId, Plan> = {
  free: {
    id: 'free',
    name: 'Free',
    usageLimit: 100,
    usagePeriod: 'day',
    requestsPerMinute: 10,
    exchangeWideRules: 2,
    ruleAddresses: 1_000,
    websocketStreams: false,
    websocketConnections: 0,
    websocketSubscriptions: 0,
  },
  tier1: {
    id: 'tier1',
    name: 'Tier 1',
    usageLimit: 50_000,
    usagePeriod: 'month',
    requestsPerMinute: 60,
    exchangeWideRules: 10,
    ruleAddresses: 10_000,
    websocketStreams: false,
    websocketConnections: 0,
    websocketSubscriptions: 0,
  },
  tier2: {
    id: 'tier2',
    name: 'Tier 2',
    usageLimit: 150_000,
    usagePeriod: 'month',
    requestsPerMinute: 100,
    exchangeWideRules: 25,
    ruleAddresses: 50_000,
    websocketStreams: false,
    websocketConnections: 0,
    websocketSubscriptions: 0,
  },
  tier3: {
    id: 'tier3',
    name: 'Tier 3',
    usageLimit: 400_000,
    usagePeriod: 'month',
    requestsPerMinute: 200,
    exchangeWideRules: 50,
    ruleAddresses: 200_000,
    websocketStreams: false,
    websocketConnections: 0,
    websocketSubscriptions: 0,
  },
  tier4: {
    id: 'tier4',
    name: 'Tier 4',
    usageLimit: 2_000_000,
    usagePeriod: 'month',
    requestsPerMinute: 500,
    exchangeWideRules: 100,
    ruleAddresses: 1_000_000,
    websocketStreams: true,
    websocketConnections: 10,
    websocketSubscriptions: 50,
  },
};

export function isPlanId(value: string): value is PlanId {
  return (PLAN_IDS as readonly string[]).includes(value);
}

export interface UsagePeriod {
  start: Date;
  end: Date;
}

/** The last period computed per kind: the request path asks for the current one thousands of times a second. */
const current: Record<Plan['usagePeriod'] | 'minute', UsagePeriod | undefined> = { day: undefined, month: undefined, minute: undefined };

function cached(kind: keyof typeof current, now: number, compute: (now: number) => UsagePeriod): UsagePeriod {
  const last = current[kind];
  if (last && now >= last.start.getTime() && now < last.end.getTime()) return last;
  const next = compute(now);
  current[kind] = next;
  return next;
}

/** The plan period containing `now` (UTC calendar day or month). Treat the result as read-only. */
export function usagePeriodAt(period: Plan['usagePeriod'], now: number): UsagePeriod {
  return cached(period, now, (at) => computeUsagePeriod(period, at));
}

function computeUsagePeriod(period: Plan['usagePeriod'], now: number): UsagePeriod {
  const d = new Date(now);
  if (period === 'day') {
    const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    return { start: new Date(start), end: new Date(start + 86_400_000) };
  }
  return {
    start: new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)),
    end: new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)),
  };
}

export const RATE_WINDOW_MS = 60_000;

/** The fixed one-minute rate-limit window containing `now`. Treat the result as read-only. */
export function rateWindowAt(now: number): UsagePeriod {
  return cached('minute', now, (at) => {
    const start = at - (at % RATE_WINDOW_MS);
    return { start: new Date(start), end: new Date(start + RATE_WINDOW_MS) };
  });
}
