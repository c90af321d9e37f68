/**
 * A component whose code is fetched on first render (or earlier, through `preload`), for parts of
 * the UI the first paint does not need. Not React.lazy: once a Suspense fallback is on screen,
 * React keeps it there for at least 300 ms, far longer than fetching a chunk from this server, so
 * a tab would open a quarter of a second late. Here the placeholder is ordinary state.
 *
 * A part whose code could not be fetched (the server was down) tries again when told the server
 * is back (`retryFailedLoads`), its stylesheets first: a stylesheet that failed stays in the page
 * empty, and the bundler's loader would skip it on a second try.
 */
import {useEffect, useState, type ComponentType, type ReactNode} from 'react';
import {errorText} from '../../../shared/values.js';

export interface LazyComponent<P extends object> {
  Component: ComponentType<P>;
  /** Starts fetching (once; a failed fetch may be retried). */
  preload: () => void;
}

/** What to show while loading (`error` undefined) or when the code could not be fetched. */
export type LazyPlaceholder = (error: string | undefined) => ReactNode;

/** Mounted lazy parts whose code failed to load: each tries again when called. */
const retries = new Set<() => void>();

/** How long a stylesheet fetched again may take before the parts try without it. */
const STYLESHEET_WAIT_MS = 10_000;

/**
 * Whether a stylesheet of this page failed to load: it has no rules, or they cannot be read
 * (Chromium's answer for a failed load; the CSP lets in this origin's stylesheets only).
 */
function failedToLoad(link: HTMLLinkElement): boolean {
  try {
    return (link.sheet?.cssRules.length ?? 0) === 0;
  } catch {
    return true;
  }
}

/** Fetches again every stylesheet of this page that failed to load. */
function reloadFailedStylesheets(): Promise<unknown> {
  const failed = [...document.querySelectorAll<HTMLLinkElement>('link[rel=stylesheet]')].filter(
    failedToLoad,
  );
  return Promise.all(
    failed.map(
      old =>
        new Promise<void>(resolve => {
          const fresh = document.createElement('link');
          fresh.rel = 'stylesheet';
          fresh.href = old.href;
          const done = (): void => {
            clearTimeout(timer);
            old.remove();
            resolve();
          };
          const timer = setTimeout(done, STYLESHEET_WAIT_MS);
          fresh.addEventListener('load', done, {once: true});
          fresh.addEventListener('error', done, {once: true});
          old.after(fresh);
        }),
    ),
  );
}

/** The server answers again: every part that failed to load tries again, stylesheets first. */
export function retryFailedLoads(): void {
  if (retries.size === 0) {
    return;
  }
  void reloadFailedStylesheets().then(() => {
    for (const retry of [...retries]) {
      retry();
    }
  });
}

export function lazyComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
  placeholder: LazyPlaceholder,
): LazyComponent<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const fetchComponent = (): Promise<ComponentType<P>> => {
    loading ??= load().then(
      component => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        // The server may have been restarted mid-fetch: the next render tries again.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };

  function Lazy(props: P): ReactNode {
    // A function in state must be wrapped: useState would call it.
    const [state, setState] = useState<{
      component?: ComponentType<P>;
      error?: string;
      /** Bumped to fetch again after a failure. */
      attempt: number;
    }>(() => (loaded === undefined ? {attempt: 0} : {component: loaded, attempt: 0}));
    const ready = state.component !== undefined;
    const failed = state.error !== undefined;
    useEffect(() => {
      if (!failed) {
        return undefined;
      }
      const retry = (): void => setState(current => ({attempt: current.attempt + 1}));
      retries.add(retry);
      return () => {
        retries.delete(retry);
      };
    }, [failed]);
    useEffect(() => {
      if (ready) {
        return undefined;
      }
      let live = true;
      fetchComponent().then(
        component => {
          if (live) {
            setState(current => ({component, attempt: current.attempt}));
          }
        },
        (error: unknown) => {
          if (live) {
            setState(current => ({error: errorText(error), attempt: current.attempt}));
          }
        },
      );
      return () => {
        live = false;
      };
    }, [ready, state.attempt]);
    const Loaded = state.component;
    return Loaded === undefined ? placeholder(state.error) : <Loaded {...props} />;
  }

  return {
    Component: Lazy,
    preload: () => {
      fetchComponent().catch(() => undefined);
    },
  };
}
