// autocannon started with its callback (its types give the promise form no events): the running
// instance, to listen to, and a promise of its result.
import autocannon from 'autocannon';

export const startAutocannon = (
  options: autocannon.Options,
): { readonly run: autocannon.Instance; readonly finished: Promise<autocannon.Result> } => {
  let finish: (error: unknown, result: autocannon.Result) => void = () => undefined;
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    finish = (error, result) => {
      if (error === null || error === undefined) resolve(result);
      else reject(error instanceof Error ? error : new Error('autocannon failed', { cause: error }));
    };
  });
  const run = autocannon(options, (error: unknown, result: autocannon.Result) => {
    finish(error, result);
  });
  return { run, finished };
};
