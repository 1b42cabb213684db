import { useState } from 'preact/hooks';
import { signIn, signUp } from './api.js';
import { Failure, useAction } from './use-action.js';

export function AuthPage({ onSignedIn }: { onSignedIn: () => void }) {
  const [mode, setMode] = useState<'sign-in' | 'sign-up'>('sign-in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { run, error, busy } = useAction();
  const signingUp = mode === 'sign-up';

  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      await (signingUp ? signUp : signIn)(email, password);
      onSignedIn();
    });
  };

  return (
    <section class="card narrow">
      <h1>{signingUp ? 'Create your account' : 'Sign in'}</h1>
      <form onSubmit={submit}>
        <label>
          Email
          <input type="email" autocomplete="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </label>
        <label>
          Password
          <input
            type="password"
            autocomplete={signingUp ? 'new-password' : 'current-password'}
            required
            minLength={signingUp ? 12 : undefined}
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        {signingUp && <p class="hint">At least 12 characters.</p>}
        <Failure error={error} />
        <button type="submit" disabled={busy}>
          {signingUp ? 'Create account' : 'Sign in'}
        </button>
      </form>
      <p>
        {signingUp ? 'Already have an account? ' : 'New to Tidewatch? '}
        <button type="button" class="link" onClick={() => setMode(signingUp ? 'sign-in' : 'sign-up')}>
          {signingUp ? 'Sign in' : 'Create an account'}
        </button>
      </p>
    </section>
  );
}
