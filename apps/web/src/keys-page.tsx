import { useEffect, useRef, useState } from 'preact/hooks';
import { type ApiKey, type CreatedKey, createKey, listKeys, revokeKey } from './api.js';
import { Failure, useAction } from './use-action.js';

const when = (iso: string | null, none: string) => (iso ? new Date(iso).toLocaleString() : none);

export function KeysPage() {
  const [keys, setKeys] = useState<ApiKey[]>([]);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const { run, error } = useAction();
  const refresh = () => run(async () => setKeys(await listKeys()));
  useEffect(() => void refresh(), []);

  const revoke = (key: ApiKey) =>
    run(async () => {
      await revokeKey(key.id);
      setKeys(await listKeys());
    });

  return (
    <section class="card">
      <h1>API keys</h1>
      <p>
        Send a key as <code>Authorization: Bearer &lt;key&gt;</code> to the REST API (<a href="/docs">reference</a>).
      </p>
      <CreateKeyForm
        onCreated={async (key) => {
          setCreated(key);
          setKeys(await listKeys());
        }}
      />
      {created && <NewKey created={created} onDone={() => setCreated(null)} />}
      <Failure error={error} />
      <table>
        <caption>Your keys</caption>
        <thead>
          <tr>
            <th scope="col">Label</th>
            <th scope="col">Key</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Expires</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id}>
              <td>{key.label ?? '(no label)'}</td>
              <td>
                <code>…{key.tail}</code>
              </td>
              <td>{when(key.createdAt, '')}</td>
              <td>{when(key.lastUsedAt, 'Never')}</td>
              <td>{when(key.expiresAt, 'Never')}</td>
              <td>
                <button type="button" class="danger" aria-label={`Revoke ${key.label ?? key.tail}`} onClick={() => revoke(key)}>
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {keys.length === 0 && <p>No keys yet.</p>}
    </section>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (key: CreatedKey) => void }) {
  const [label, setLabel] = useState('');
  const [days, setDays] = useState('');
  const { run, error, busy } = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      onCreated(await createKey(label, days ? Number(days) : undefined));
      setLabel('');
      setDays('');
    });
  };
  return (
    <form class="inline" onSubmit={submit}>
      <label>
        Label
        <input required maxLength={100} value={label} onInput={(e) => setLabel(e.currentTarget.value)} />
      </label>
      <label>
        Expires in (days, optional)
        <input type="number" min={1} max={3650} value={days} onInput={(e) => setDays(e.currentTarget.value)} />
      </label>
      <button type="submit" disabled={busy}>
        Create key
      </button>
      <Failure error={error} />
    </form>
  );
}

function NewKey({ created, onDone }: { created: CreatedKey; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.token);
    } catch {
      // The Clipboard API is refused without focus or permission; the selection can still be copied.
      field.current?.select();
      document.execCommand('copy');
    }
    setCopied(true);
  };
  return (
    <div role="region" aria-label="New key" class="new-key">
      <p>
        <strong>Copy this key now.</strong> It is shown once; Tidewatch keeps only its id.
      </p>
      <label>
        New key “{created.label}”
        <input ref={field} readOnly value={created.token} onFocus={(e) => e.currentTarget.select()} />
      </label>
      <button type="button" onClick={copy}>
        {copied ? 'Copied' : 'Copy'}
      </button>
      <button type="button" class="link" onClick={onDone}>
        Done
      </button>
    </div>
  );
}
