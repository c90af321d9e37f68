/**
 * A component whose code is fetched on first render (or earlier, through `preload`), for parts of
 * the UI the first paint does not need. Not React.lazy: once a Suspense fallback is on screen,
 * React keeps it there for at least 300 ms, far longer than fetching a chunk from this server, so
 * a tab would open a quarter of a second late. Here the placeholder is ordinary state.
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
    const [state, setState] = useState<{component?: ComponentType<P>; error?: string}>(() =>
      loaded === undefined ? {} : {component: loaded},
    );
    const ready = state.component !== undefined;
    useEffect(() => {
      if (ready) {
        return undefined;
      }
      let live = true;
      fetchComponent().then(
        component => {
          if (live) {
            setState({component});
          }
        },
        (error: unknown) => {
          if (live) {
            setState({error: errorText(error)});
          }
        },
      );
      return () => {
        live = false;
      };
    }, [ready]);
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
