import { useEffect, useState } from 'preact/hooks';
import { loadUsage, type Usage } from './api.js';
import { Failure, useAction } from './use-action.js';

export function UsagePage() {
  const [usage, setUsage] = useState<Usage | null>(null);
  const { run, error } = useAction();
  useEffect(() => void run(async () => setUsage(await loadUsage())), []);

  return (
    <section class="card">
      <h1>Usage</h1>
      <Failure error={error} />
      {usage && (
        <dl class="facts">
          <dt>Plan</dt>
          <dd>{usage.plan}</dd>
          <dt>Usage tokens spent</dt>
          <dd>
            {usage.used} of {usage.limit}
          </dd>
          <dt>Remaining</dt>
          <dd>{usage.remaining}</dd>
          <dt>Resets</dt>
          <dd>{new Date(usage.resetsAt).toLocaleString()}</dd>
        </dl>
      )}
    </section>
  );
}
