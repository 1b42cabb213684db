import { useEffect, useState } from 'preact/hooks';
import { type Account, loadSession, signOut } from './api.js';
import { AuthPage } from './auth-page.js';
import { KeysPage } from './keys-page.js';

export function App() {
  const [account, setAccount] = useState<Account | null | undefined>(undefined);
  useEffect(() => void loadSession().then(setAccount), []);

  const leave = async () => {
    await signOut();
    setAccount(await loadSession());
  };

  if (account === undefined) return <main aria-busy="true" />;
  return (
    <>
      <header>
        <span class="brand">Tidewatch</span>
        {account && (
          <nav aria-label="Account">
            <span>
              {account.email} · {account.plan} plan
            </span>
            <button type="button" onClick={leave}>
              Sign out
            </button>
          </nav>
        )}
      </header>
      <main>{account ? <KeysPage /> : <AuthPage onSignedIn={async () => setAccount(await loadSession())} />}</main>
    </>
  );
}
