import { ApolloProvider } from "@apollo/client/react";
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from "react";
import { Feed } from "./features/feed/Feed";
import { Layout } from "./features/layout/Layout";
import { useViewer } from "./features/layout/viewer";
import { PhotoPage } from "./features/photo/PhotoPage";
import { Profile } from "./features/profile/Profile";
import { EditProfile } from "./features/settings/EditProfile";
import { CreateProfile } from "./features/signin/CreateProfile";
import { SignIn } from "./features/signin/SignIn";
import { Upload } from "./features/upload/Upload";
import { type SessionServices, startSession } from "./lib/client";
import { parseRoute, type Route } from "./lib/router";
import { type Services, ServicesContext } from "./lib/services";
import { loadSession, saveSession, type Session } from "./lib/session";

function useRoute(): Route {
  const hash = useSyncExternalStore(
    (fn) => {
      window.addEventListener("hashchange", fn);
      return () => window.removeEventListener("hashchange", fn);
    },
    () => window.location.hash,
  );
  return parseRoute(hash);
}

export function App() {
  const [session, setSession] = useState<Session | undefined>(() => loadSession(window.localStorage));
  if (session === undefined) {
    return (
      <SignIn
        onSignedIn={(s) => {
          saveSession(window.localStorage, s);
          setSession(s);
        }}
      />
    );
  }
  return (
    <SignedIn
      key={session.username}
      session={session}
      onSignedOut={() => {
        saveSession(window.localStorage, undefined);
        setSession(undefined);
      }}
    />
  );
}

function SignedIn(props: { session: Session; onSignedOut: () => void }) {
  // The session's services live as long as this component: made and closed by one effect, so
  // that React's StrictMode (which runs effects twice in development) never keeps a closed one.
  const [started, setStarted] = useState<SessionServices>();
  useEffect(() => {
    const s = startSession(props.session);
    // The services are an external resource (a WebSocket, storage, listeners) that this effect
    // makes and closes; rendering waits for them.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setStarted(s);
    return () => s.close();
  }, [props.session]);
  const [messages, setMessages] = useState<string[]>([]);
  const notify = useCallback((m: string) => setMessages((ms) => [...ms, m]), []);
  const { onSignedOut } = props;
  const services: Services | undefined = useMemo(
    () =>
      started && {
        session: props.session,
        queue: started.queue,
        outbox: started.outbox,
        connectivity: started.connectivity,
        credentials: started.credentials,
        syncNow: started.syncNow,
        // The new token goes to the running session and to storage; App's session state keeps
        // the one this session started with, so that nothing restarts: the queue, the cache and
        // the screens carry on.
        signedInAgain: (s: Session) => {
          saveSession(window.localStorage, s);
          started.signedInAgain(s.token);
        },
        // Closed first, and told to save nothing: the effect's cleanup, which closes it again
        // as the component goes, must not write the cache back once it has been removed.
        signOut: () => {
          started.close({ forget: true });
          onSignedOut();
        },
        notify,
      },
    [props.session, started, onSignedOut, notify],
  );
  if (started === undefined || services === undefined) return null;
  return (
    <ApolloProvider client={started.client}>
      <ServicesContext.Provider value={services}>
        <Layout messages={messages} onDismissMessage={(i) => setMessages((ms) => ms.filter((_, j) => j !== i))}>
          <Screen />
        </Layout>
      </ServicesContext.Provider>
    </ApolloProvider>
  );
}

function Screen() {
  const route = useRoute();
  const viewer = useViewer();
  if (viewer.data && viewer.data.viewer === null) return <CreateProfile />;
  switch (route.screen) {
    case "feed":
      return <Feed />;
    case "profile":
      return <Profile username={route.username} />;
    case "photo":
      return <PhotoPage owner={route.owner} timestamp={route.timestamp} />;
    case "upload":
      return <Upload />;
    case "settings":
      return <EditProfile />;
    case "notFound":
      return <h1>Nothing here</h1>;
  }
}
