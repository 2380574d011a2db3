import { opayoTestResult, tranSafeTestResult } from '@ledgerline/contract';
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

/** spec 3 §7 POST opayo/admin/register-ip (a Server-type save does it first). */
export const registerOpayoIp = (body: OpayoCredentials) =>
  companyClient.post('/opayo/admin/register-ip', body, { schema: opayoTestResult });

/** spec 3 §7 POST transafe/admin/test-connection */
export const testTranSafeConnection = (body: {
  userName: string;
  password: string;
  useTestServer: boolean;
  paymentProviderId?: string | null;
}) => companyClient.post('/transafe/admin/test-connection', body, { schema: tranSafeTestResult });

export const useTestOpayoConnection = () => useMutation({ mutationFn: testOpayoConnection });
export const useTestTranSafeConnection = () => useMutation({ mutationFn: testTranSafeConnection });
