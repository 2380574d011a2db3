import type { PayPageAnswer } from '@ledgerline/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { getPayPage, PayCallError } from './api';

export type Loaded =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | { kind: 'ready'; answer: PayPageAnswer };

/**
 * The payment request the page shows, loaded (or taken from the answer written into the page),
 * and the page's title set from it.
 */
export function usePayPage(requestId: string | null, firstAnswer: PayPageAnswer | undefined) {
  const [loaded, setLoaded] = useState<Loaded>(
    firstAnswer ? { kind: 'ready', answer: firstAnswer } : { kind: 'loading' },
  );
  const answered = useRef(firstAnswer !== undefined);

  const load = useCallback(async () => {
    if (!requestId) {
      setLoaded({ kind: 'ready', answer: { state: 'Expired' } });
      return;
    }
    try {
      setLoaded({ kind: 'ready', answer: await getPayPage(requestId) });
    } catch (error) {
      // A link cut short or mistyped (an id the API refuses or does not route) looks like any
      // link that leads nowhere: expired.
      if (error instanceof PayCallError && (error.status === 400 || error.status === 404)) {
        setLoaded({ kind: 'ready', answer: { state: 'Expired' } });
        return;
      }
      setLoaded({
        kind: 'failed',
        message: error instanceof PayCallError ? error.message : String(error),
      });
    }
  }, [requestId]);

  useEffect(() => {
    // The first answer came with the page: the first load has nothing to ask.
    if (answered.current) {
      answered.current = false;
      return;
    }
    void load();
  }, [load]);

  const answer = loaded.kind === 'ready' ? loaded.answer : null;
  useEffect(() => {
    if (answer)
      document.title =
        answer.state === 'Expired' ? 'Payment link expired' : `Pay ${answer.company.name}`;
  }, [answer]);

  return { loaded, setLoaded, load };
}
