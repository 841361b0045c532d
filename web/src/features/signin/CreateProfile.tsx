import { useMutation } from "@apollo/client/react";
import { useState } from "react";
import { graphql } from "../../gql";
import { messageFor } from "../../lib/errors";
import { useServices } from "../../lib/services";
import { newMutationId } from "../../offline/queue";
import { ViewerStateQuery } from "../layout/viewer";

const CreateProfileMutation = graphql(`
  mutation CreateProfile($input: CreateUserInput!) {
    createUser(input: $input) {
      id
      username
      name
    }
  }
`);

/** CreateProfile: a signed-in person whose username has no profile yet makes one. */
export function CreateProfile() {
  const { session, syncNow } = useServices();
  const [name, setName] = useState("");
  const [create, { error, loading }] = useMutation(CreateProfileMutation, { refetchQueries: [ViewerStateQuery], awaitRefetchQueries: true });
  return (
    <section>
      <h1>Welcome, {session.username}</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          // With no profile there was no sync scope to follow: the sync starts now.
          create({ variables: { input: { username: session.username, name: name || null, clientMutationId: newMutationId() } } }).then(syncNow, () => {});
        }}
      >
        <p>You have no profile yet.</p>
        <label>
          Your name
          <input value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <button type="submit" disabled={loading}>
          Create my profile
        </button>
      </form>
      {error && <p role="alert">{messageFor(error, { CONFLICT: "That username is taken." })}</p>}
    </section>
  );
}
