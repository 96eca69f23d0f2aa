// autocannon started with its callback (its types give the promise form no events): the running
// instance, to listen to, and a promise of its end.
import autocannon from 'autocannon';

export const startAutocannon = (
  options: autocannon.Options,
): { readonly run: autocannon.Instance; readonly finished: Promise<void> } => {
  let finish: (error: unknown) => void = () => undefined;
  const finished = new Promise<void>((resolve, reject) => {
    finish = (error) => {
      if (error === null || error === undefined) resolve();
      else reject(error instanceof Error ? error : new Error('autocannon failed', { cause: error }));
    };
  });
  const run = autocannon(options, (error: unknown) => {
    finish(error);
  });
  return { run, finished };
};
