// A promise with its resolve and reject at hand, and whether it has settled (Promise.withResolvers
// is not in Node 20). Its rejection is read by whoever awaits `promise`; unread, it is not an error.
export interface Deferred {
  promise: Promise<void>;
  settled: boolean;
  resolve(): void;
  reject(error: Error): void;
}

export function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined); // rejections are read through `done`/`ready` by whoever cares
  const result: Deferred = {
    promise,
    settled: false,
    resolve() {
      result.settled = true;
      resolve();
    },
    reject(error) {
      result.settled = true;
      reject(error);
    },
  };
  return result;
}
