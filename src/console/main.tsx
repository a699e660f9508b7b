import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import { useRoute, type Route } from './router.js';
import { Field } from './ui.js';
import { ContentView } from './views/content.js';
import { ModelView } from './views/model.js';
import { PlanningView } from './views/planning.js';
import { DeliveriesView } from './views/deliveries.js';
import { SandboxView } from './views/sandbox.js';

// The sandbox console: a sign-in form, then one view per area, each at its own #/ URL.

/** The Search view carries chart.js (most of the bundle): loaded when first opened, not before the first view. */
function SearchView(props: { route: Route }) {
  const [mod, setMod] = useState<typeof import('./views/search.js') | null>(null);
  const [error, setError] = useState<Error | null>(null);
  useEffect(() => {
    import('./views/search.js').then(setMod, setError);
  }, []);
  if (error) return <p class="error">{error.message}</p>;
  return mod ? <mod.SearchView {...props} /> : <p class="muted">Loading…</p>;
}

const VIEWS = [
  { key: 'content', label: 'Content', View: ContentView },
  { key: 'model', label: 'Content model', View: ModelView },
  { key: 'planning', label: 'Planning', View: PlanningView },
  { key: 'deliveries', label: 'Deliveries and jobs', View: DeliveriesView },
  { key: 'search', label: 'Search', View: SearchView },
  { key: 'sandbox', label: 'Sandbox', View: SandboxView },
] as const;

/** The well-known sandbox admin client, offered only when the console is opened on this machine. */
const LOCAL = /^(localhost|127(\.\d+){3}|\[::1\])$/.test(location.hostname);
const ADMIN = { id: 'sandbox-admin', secret: 'sandbox-secret' };

function SignIn({ onDone }: { onDone: () => void }) {
  const [id, setId] = useState(LOCAL ? ADMIN.id : '');
  const [secret, setSecret] = useState(LOCAL ? ADMIN.secret : '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api.signIn(id.trim(), secret);
      onDone();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="signin">
      <h1>Sandbox console</h1>
      <p>Sign in with a client of this sandbox. The token stays in this page's memory only: reloading signs you out.</p>
      <form onSubmit={submit} aria-describedby={error ? 'signin-error' : undefined}>
        <Field id="client-id" label="Client id">
          <input id="client-id" name="client-id" autoComplete="username" required value={id} onInput={(e) => setId((e.target as HTMLInputElement).value)} />
        </Field>
        <Field id="client-secret" label="Client secret">
          <input id="client-secret" name="client-secret" type="password" autoComplete="current-password" required value={secret} onInput={(e) => setSecret((e.target as HTMLInputElement).value)} />
        </Field>
        {LOCAL && <p class="muted">Prefilled with the sandbox admin client, because this sandbox runs on this machine.</p>}
        {error && (
          <p id="signin-error" class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}

function App() {
  const [signedIn, setSignedIn] = useState(api.signedIn);
  const route = useRoute();
  const current = VIEWS.find((v) => v.key === route.parts[0]) ?? VIEWS[0];
  useEffect(() => {
    document.title = `${current.label} · Sandbox console`;
  }, [current]);
  if (!signedIn) return <SignIn onDone={() => setSignedIn(true)} />;
  const { View } = current;
  return (
    <div class="shell">
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Sandbox console</span>
        <nav aria-label="Views">
          <ul>
            {VIEWS.map((v) => (
              <li key={v.key}>
                <a href={`#/${v.key}`} aria-current={v === current ? 'page' : undefined}>
                  {v.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <button
          type="button"
          class="link"
          onClick={() => {
            api.signOut();
            setSignedIn(false);
          }}
        >
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <View route={route} />
      </main>
    </div>
  );
}

const root = document.getElementById('app')!;
root.textContent = '';
render(<App />, root);
