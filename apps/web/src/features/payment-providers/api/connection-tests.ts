import { connectionTestResult, opayoTestResult, tranSafeTestResult } from '@ledgerline/contract';
import { useMutation } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';

export interface OpayoCredentials {
  vendor: string;
  user: string;
  password: string;
  useTestServer: boolean;
  paymentProviderId?: string | null;
}

/** spec 3 §7 POST opayo/admin/test-connection */
export const testOpayoConnection = (body: OpayoCredentials) =>
  companyClient.post('/opayo/admin/test-connection', body, { schema: opayoTestResult });

/** spec 3 §7 POST transafe/admin/test-connection */
export const testTranSafeConnection = (body: {
  userName: string;
  password: string;
  useTestServer: boolean;
  paymentProviderId?: string | null;
}) => companyClient.post('/transafe/admin/test-connection', body, { schema: tranSafeTestResult });

export const useTestOpayoConnection = () => useMutation({ mutationFn: testOpayoConnection });
export const useTestTranSafeConnection = () => useMutation({ mutationFn: testTranSafeConnection });

/** POST truelayer/admin/test-connection: a client-credentials token proves the client. */
export const testTrueLayerConnection = (body: {
  clientId: string;
  clientSecret: string;
  useSandbox: boolean;
  paymentProviderId?: string | null;
}) =>
  companyClient.post('/truelayer/admin/test-connection', body, { schema: connectionTestResult });

/** POST oppwa/admin/test-connection: a 1.00 GBP checkout (nothing charged) proves token and entity. */
export const testOppwaConnection = (body: {
  entityId: string;
  accessToken: string;
  useSandbox: boolean;
  paymentProviderId?: string | null;
}) => companyClient.post('/oppwa/admin/test-connection', body, { schema: connectionTestResult });

export const useTestTrueLayerConnection = () =>
  useMutation({ mutationFn: testTrueLayerConnection });
export const useTestOppwaConnection = () => useMutation({ mutationFn: testOppwaConnection });
