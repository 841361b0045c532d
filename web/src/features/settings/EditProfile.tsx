import { useApolloClient, useQuery } from "@apollo/client/react";
import { useEffect, useRef, useState } from "react";
import { type FragmentType, getFragmentData, graphql } from "../../gql";
import { messageFor, refusalOf } from "../../lib/errors";
import { usePending, useReadPolicy, useServices } from "../../lib/services";
import { newMutationId } from "../../offline/queue";
import { changes, currentOf, type ProfileFields } from "./updateProfile";

export const EditProfile_user = graphql(`
  fragment EditProfile_user on User {
    id
    username
    name
    status
    version
  }
`);

const EditProfileQuery = graphql(`
  query EditProfile {
    viewer {
      id
      ...EditProfile_user
    }
  }
`);

/**
 * EditProfile changes the viewer's name and status with expectedVersion: an edit made to a
 * profile that changed meanwhile is refused with CONFLICT, and the screen shows both versions
 * and lets the person send theirs again over the current one.
 */
export function EditProfile() {
  const { data, error } = useQuery(EditProfileQuery, { fetchPolicy: useReadPolicy() });
  if (!data) return error ? <p role="alert">{messageFor(error)}</p> : <p role="status">Loading…</p>;
  if (!data.viewer) return <p>Create your profile first.</p>;
  return <EditForm user={data.viewer} />;
}

interface Conflict {
  mine: ProfileFields;
  theirs: ProfileFields & { version: number };
}

function EditForm(props: { user: FragmentType<typeof EditProfile_user> }) {
  const user = getFragmentData(EditProfile_user, props.user);
  const { outbox, queue } = useServices();
  const client = useApolloClient();
  const pending = usePending().filter((m) => m.operationName === "UpdateProfile").length;
  const saved: ProfileFields = { name: user.name ?? "", status: user.status ?? "" };
  const [form, setForm] = useState<ProfileFields>(saved);
  // The version the form edits. Until the person types, the form follows the profile as the
  // cache has it (the sync step brings an edit made elsewhere while the screen is open); once
  // they have typed, it stays on the version they started from, so that saving over a newer
  // one is refused with CONFLICT and both are shown, rather than overwriting it unseen.
  const [editing, setEditing] = useState({ fields: saved, version: user.version });
  const dirty = form.name !== editing.fields.name || form.status !== editing.fields.status;
  if (!dirty && (editing.version !== user.version || editing.fields.name !== saved.name || editing.fields.status !== saved.status)) {
    setEditing({ fields: saved, version: user.version });
    setForm(saved);
  }
  const [conflict, setConflict] = useState<Conflict>();
  const [said, setSaid] = useState<string>();
  // A refusal that arrives after the person left this screen stays in the layout's list.
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const save = (fields: ProfileFields, base: ProfileFields, version: number) => {
    const input = changes(base, fields);
    if (Object.keys(input).length === 0) {
      setSaid("Nothing to save.");
      return;
    }
    const id = newMutationId();
    const before = editing;
    // What is sent becomes what the form edits: the optimistic answer is that version.
    setEditing({ fields, version: version + 1 });
    setConflict(undefined);
    setSaid("Saved.");
    outbox
      .send({
        id,
        operationName: "UpdateProfile",
        variables: { username: user.username, input: { ...input, expectedVersion: version, clientMutationId: id } },
        optimisticResponse: { __typename: "Mutation", updateUser: { __typename: "User", id: user.id, username: user.username, name: fields.name || null, status: fields.status || null, version: version + 1 } },
        label: "edit your profile",
        messages: { CONFLICT: "Your profile was changed elsewhere before this edit arrived: open Edit profile, check it, and save yours again." },
      })
      .catch((err: unknown) => {
        const r = refusalOf(err);
        const theirs = r.code === "CONFLICT" ? currentOf(r.extensions) : undefined;
        setSaid(undefined);
        // Refused: the typed fields stay in the form, which is again an edit of what it was.
        if (mounted.current) setEditing(before);
        if (theirs !== undefined && mounted.current) {
          // Shown here, with both versions, rather than in the layout's list.
          queue.dismiss(id);
          setConflict({ mine: fields, theirs });
        }
      });
  };

  return (
    <section>
      <h1>Edit your profile</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save(form, editing.fields, editing.version);
        }}
      >
        <label>
          Name
          <input value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} maxLength={1000} />
        </label>
        <label>
          Status
          <input value={form.status} onChange={(e) => setForm({ ...form, status: e.target.value })} maxLength={1000} />
        </label>
        <button type="submit">Save</button>
        {pending > 0 && <span className="pending"> waiting to be sent</span>}
        {said && <span role="status"> {said}</span>}
      </form>
      {conflict && (
        <div role="alert" className="conflict">
          <h2>Your profile was changed elsewhere</h2>
          <p>
            Your edit was made to an older version of your profile, so it was not saved. The profile is now at version {conflict.theirs.version}:
          </p>
          <dl>
            <dt>Name now</dt>
            <dd>{conflict.theirs.name || "(none)"}</dd>
            <dt>Status now</dt>
            <dd>{conflict.theirs.status || "(none)"}</dd>
            <dt>Your name</dt>
            <dd>{conflict.mine.name || "(none)"}</dd>
            <dt>Your status</dt>
            <dd>{conflict.mine.status || "(none)"}</dd>
          </dl>
          <button type="button" onClick={() => save(conflict.mine, conflict.theirs, conflict.theirs.version)}>
            Save mine over it
          </button>{" "}
          <button
            type="button"
            onClick={() => {
              const theirs = { name: conflict.theirs.name, status: conflict.theirs.status };
              setForm(theirs);
              setEditing({ fields: theirs, version: conflict.theirs.version });
              setConflict(undefined);
              void client.refetchQueries({ include: [EditProfileQuery] });
            }}
          >
            Keep it as it is
          </button>
        </div>
      )}
    </section>
  );
}
