import { useEffect, useState } from "react";
import { apiBase } from "../../lib/network";
import { claimOfToken, devSignIn, devSignInStatus, type DevSignInStatus, type Session } from "../../lib/session";

/** A user of the sample dataset (`serve --sample`) to suggest: the most followed, as the README says. */
const sampleUsername = "miawright";

/**
 * SignIn: against a development server (no identity provider, on loopback), as any username,
 * with a token the server mints; otherwise with a bearer token from the identity provider.
 */
export function SignIn(props: { onSignedIn: (s: Session) => void }) {
  const [status, setStatus] = useState<DevSignInStatus>();
  const [error, setError] = useState<string>();
  const [username, setUsername] = useState("");
  const [token, setToken] = useState("");

  useEffect(() => {
    devSignInStatus(apiBase()).then(setStatus, () => setStatus({ available: false, reason: "the server could not be reached" }));
  }, []);

  return (
    <main className="signin">
      <h1>Sign in to Quick Photos</h1>
      {status === undefined && <p role="status">Asking the server how to sign in…</p>}
      {status?.available && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setError(undefined);
            devSignIn(apiBase(), username.trim()).then(props.onSignedIn, (err: unknown) => setError(err instanceof Error ? err.message : String(err)));
          }}
        >
          <p>This is a development server: sign in as anyone.</p>
          {/* The sign-in endpoint does not say whether the server loaded the sample, so the hint says when it applies. */}
          <p id="signin-sample">
            On a server started with <code>--sample</code>, try <code>{sampleUsername}</code>, who follows a few people; a new name makes a new profile.
          </p>
          <label>
            Username
            <input name="username" value={username} onChange={(e) => setUsername(e.target.value)} required autoComplete="username" aria-describedby="signin-sample" />
          </label>
          <button type="submit">Sign in</button>
        </form>
      )}
      {status && !status.available && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const t = token.trim();
            // Cognito's ID and access tokens name the user in these claims (their sub is an id);
            // quickphotos's own tokens in sub.
            const name = claimOfToken(t, "cognito:username") ?? claimOfToken(t, "username") ?? claimOfToken(t, "sub");
            if (name === undefined) {
              setError("This token names no user: paste the token your identity provider issued.");
              return;
            }
            props.onSignedIn({ username: name, token: t });
          }}
        >
          <p>Paste a bearer token from this server's identity provider.</p>
          <label>
            Token
            <textarea name="token" value={token} onChange={(e) => setToken(e.target.value)} required rows={4} />
          </label>
          <button type="submit">Sign in</button>
        </form>
      )}
      {error && <p role="alert">{error}</p>}
    </main>
  );
}
