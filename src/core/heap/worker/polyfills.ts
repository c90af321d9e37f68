/**
 * DevTools' heap snapshot code targets current Chrome; Node 20 (the oldest Node this app supports)
 * lacks Promise.withResolvers. Imported first by heapWorker.ts, before any DevTools module runs.
 */
function withResolvers<T>(): {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
} {
  let resolve: (value: T | PromiseLike<T>) => void = () => undefined;
  let reject: (reason?: unknown) => void = () => undefined;
  const promise = new Promise<T>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  return {promise, resolve, reject};
}

if (!Reflect.has(Promise, 'withResolvers')) {
  Reflect.defineProperty(Promise, 'withResolvers', {
    value: withResolvers,
    configurable: true,
    writable: true,
  });
}
