/** The dashboard's own routes (apps/api/src/dashboard), same origin, cookie session. */
export interface Account {
  email: string;
  plan: string;
}

export interface ApiKey {
  id: string;
  label: string | null;
  tail: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
}

export interface CreatedKey extends ApiKey {
  token: string;
}

export interface Usage {
  plan: string;
  used: number;
  limit: number;
  remaining: number;
  resetsAt: string;
}

export class ApiError extends Error {}

let csrfToken = '';

async function call<T>(method: string, path: string, body?: object): Promise<T> {
  const res = await fetch(`/dashboard/api/${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(method === 'GET' ? {} : { 'X-CSRF-Token': csrfToken }) },
    body: body && JSON.stringify(body),
  });
  if (res.status === 204) return undefined as T;
  const json = await res.json();
  if (!res.ok) throw new ApiError(json.errors?.map((e: { message: string }) => e.message).join('; ') ?? json.message);
  return json as T;
}

export async function loadSession(): Promise<Account | null> {
  const session = await call<{ account: Account | null; csrfToken: string }>('GET', 'session');
  csrfToken = session.csrfToken;
  return session.account;
}

export const signUp = (email: string, password: string) => call<Account>('POST', 'sign-up', { email, password });
export const signIn = (email: string, password: string) => call<Account>('POST', 'sign-in', { email, password });
export const signOut = () => call<void>('POST', 'sign-out');
export const listKeys = () => call<ApiKey[]>('GET', 'keys');
export const createKey = (label: string, expiresInDays?: number) => call<CreatedKey>('POST', 'keys', { label, expiresInDays });
export const revokeKey = (id: string) => call<void>('DELETE', `keys/${id}`);
export const loadUsage = () => call<Usage>('GET', 'usage');
