import type { PaymentNextStep } from '@ledgerline/contract';
import { useEffect, useRef } from 'react';

export type OppwaStep = Extract<PaymentNextStep, { kind: 'oppwa' }>;

declare global {
  interface Window {
    wpwlOptions?: Record<string, unknown>;
  }
}

/**
 * OPPWA COPYandPAY: the provider's script draws its card form into `form.paymentWidgets` and,
 * once paid, sends the payer to `shopperResultUrl` (this page again, with `?payment=`). The page
 * that shows it is served with the OPPWA hosts in its Content-Security-Policy (apps/api
 * pay-page.ts); no other load of the payer page allows them.
 */
export function OppwaWidget({ step, onBack }: { step: OppwaStep; onBack: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    headingRef.current?.focus();
    window.wpwlOptions = { locale: 'en', style: 'card' };
    const script = document.createElement('script');
    script.src = step.scriptUrl;
    script.async = true;
    document.head.append(script);
    return () => {
      script.remove();
      delete window.wpwlOptions;
    };
  }, [step.scriptUrl]);

  return (
    <section className="card" aria-labelledby="widget-heading">
      <h2 id="widget-heading" ref={headingRef} tabIndex={-1}>
        Card details
      </h2>
      <form action={step.shopperResultUrl} className="paymentWidgets" data-brands={step.brands} />
      <button type="button" className="link" onClick={onBack}>
        Choose another way to pay
      </button>
    </section>
  );
}
