import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { useDatasetsAll } from '@/lib/api/get-datasets-all';
import { useCompanyId } from '@/lib/company';
import { setCompanyId } from '@/lib/storage';
import { LoadingState } from '@/ui/loading-state';

/** spec 2 §2: the record kinds the redirect page opens (et), by their detail routes. */
const detailPaths = { pt: '/payment-transactions', tr: '/transactions', ac: '/accounts' } as const;
const recordId = z.uuid();

/** Where /rd?et=&eid= leads: the record's detail page, otherwise home. */
export function redirectTarget(params: URLSearchParams): string {
  const kind = params.get('et') as keyof typeof detailPaths | null;
  const id = params.get('eid') ?? '';
  const path = kind && Object.hasOwn(detailPaths, kind) ? detailPaths[kind] : undefined;
  return path && recordId.safeParse(id).success ? `${path}/${id}` : '/';
}

/**
 * spec 2 §2 (spec 1 §2.1 /rd): a link from an e-mail or another system. It stores the company `ds`
 * when it is one of the user's companies, then opens the payment transaction (et=pt), accounting
 * transaction (et=tr) or account (et=ac) with the id `eid`, otherwise home.
 */
export function RedirectRoute() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const companyId = useCompanyId();
  const companies = useDatasetsAll();

  useEffect(() => {
    if (companies.isPending) return;
    const wanted = Number(params.get('ds'));
    const known = companies.data?.some((company) => company.id === wanted) ?? false;
    if (known && wanted !== companyId) setCompanyId(wanted);
    void navigate(redirectTarget(params), { replace: true });
  }, [companies.isPending, companies.data, companyId, params, navigate]);

  return <LoadingState label="Opening the record" />;
}
