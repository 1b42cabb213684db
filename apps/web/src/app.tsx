import { useEffect, useState } from 'preact/hooks';
import { type Account, loadSession, signOut } from './api.js';
import { AuthPage } from './auth-page.js';
import { KeysPage } from './keys-page.js';
import { UsagePage } from './usage-page.js';

export function App() {
  const [account, setAccount] = useState<Account | null | undefined>(undefined);
  const [route, setRoute] = useState(location.hash);
  useEffect(() => void loadSession().then(setAccount), []);
  useEffect(() => {
    const follow = () => setRoute(location.hash);
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);

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
          <nav aria-label="Pages">
            <a href="#/keys" aria-current={route === '#/usage' ? undefined : 'page'}>
              API keys
            </a>
            <a href="#/usage" aria-current={route === '#/usage' ? 'page' : undefined}>
              Usage
            </a>
          </nav>
        )}
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
      <main>
        {account ? (
          route === '#/usage' ? (
            <UsagePage />
          ) : (
            <KeysPage />
          )
        ) : (
          <AuthPage onSignedIn={async () => setAccount(await loadSession())} />
        )}
      </main>
    </>
  );
}
