import { type ReactNode, useState } from "react";
import { describe } from "../../lib/errors";
import { href } from "../../lib/router";
import { useFailures, useOnline, usePending, useServices, useTokenRefused } from "../../lib/services";
import { SignInAgain } from "../signin/SignInAgain";

/**
 * Layout: the navigation, whether the app is offline, the changes waiting, a sign-in to renew
 * when the server refused the token, and the refusals.
 */
export function Layout(props: { children: ReactNode; messages: string[]; onDismissMessage: (i: number) => void }) {
  const { session, signOut, queue } = useServices();
  const online = useOnline();
  const pending = usePending();
  const failures = useFailures();
  const tokenRefused = useTokenRefused();
  // Signing out removes the queue: with changes still waiting, the person is told how many
  // would be lost and asked first.
  const [confirmingSignOut, setConfirmingSignOut] = useState(false);
  // Nothing left to lose (the queue drained meanwhile): the question is over.
  if (confirmingSignOut && pending.length === 0) setConfirmingSignOut(false);
  const waiting = `${pending.length} ${pending.length === 1 ? "change" : "changes"} waiting to be sent`;
  return (
    <>
      <header className="top">
        <nav aria-label="Main">
          <a href={href({ screen: "feed" })}>Feed</a>
          <a href={href({ screen: "upload" })}>Upload</a>
          <a href={href({ screen: "profile", username: session.username })}>My profile</a>
          <a href={href({ screen: "settings" })}>Edit profile</a>
          <button type="button" onClick={() => (pending.length > 0 ? setConfirmingSignOut(true) : signOut())}>
            Sign out {session.username}
          </button>
        </nav>
        <div className="status-bar">
          {confirmingSignOut && (
            <div role="alert" className="message sign-out-warning">
              Signing out loses the {waiting}: they are kept on this device only until they reach the server.{" "}
              <button type="button" className="danger" onClick={signOut}>
                Sign out and lose {pending.length === 1 ? "it" : "them"}
              </button>{" "}
              <button type="button" onClick={() => setConfirmingSignOut(false)}>
                Stay signed in
              </button>
            </div>
          )}
          {tokenRefused && <SignInAgain />}
          {!online && (
            <p role="status" className="offline">
              Offline: showing what was saved; changes are sent when you are back.
            </p>
          )}
          {pending.length > 0 && (
            <details className="pending-list">
              {/* The status is inside the summary: a summary given the role of a status has no accessible name (a status takes none from its content). */}
              <summary>
                <span role="status">{waiting}</span>
              </summary>
              <ul>
                {pending.map((m) => (
                  <li key={m.id}>{m.label}</li>
                ))}
              </ul>
            </details>
          )}
        </div>
      </header>
      <div className="messages" aria-live="assertive">
        {props.messages.map((m, i) => (
          <p key={i} role="alert" className="message">
            {m}{" "}
            <button type="button" onClick={() => props.onDismissMessage(i)}>
              Dismiss
            </button>
          </p>
        ))}
        {failures.map((f) => (
          <div key={f.id} role="alert" className="message failure">
            Not saved: {f.label}. {describe(f.refusal, f.messages)}{" "}
            <button type="button" onClick={() => queue.dismiss(f.id)}>
              Dismiss
            </button>
          </div>
        ))}
      </div>
      <main>{props.children}</main>
    </>
  );
}
