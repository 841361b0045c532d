import { describe } from "../../lib/errors";
import { usePending, useServices } from "../../lib/services";
import { SignInForms } from "./SignIn";

/**
 * SignInAgain: the server refused the session's token (UNAUTHENTICATED: it expired, or a
 * development server restarted with a new key). The person signs in again as the same user,
 * and the changes waiting go out; signing out instead would lose them, and the saved cache.
 */
export function SignInAgain() {
  const { session, signedInAgain } = useServices();
  const waiting = usePending().length;
  return (
    <section className="sign-in-again" aria-labelledby="sign-in-again-title">
      <h2 id="sign-in-again-title">Sign in again</h2>
      <p>
        {describe({ code: "UNAUTHENTICATED", message: "", extensions: {} })}{" "}
        {waiting > 0
          ? `${waiting === 1 ? "The change" : `The ${waiting} changes`} waiting will be sent once you have, as ${session.username}.`
          : `What this device saved for ${session.username} is kept.`}
      </p>
      <SignInForms again={session.username} onSignedIn={signedInAgain} />
    </section>
  );
}
