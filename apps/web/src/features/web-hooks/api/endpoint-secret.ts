import { webHookSecretSchema } from '@ledgerline/contract';
import { useMutation } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';

/** GET web-hooks/endpoints/{id}/secret: fetched on demand, never cached. */
export function useRevealSecret() {
  return useMutation({
    mutationFn: async (id: string) =>
      (
        await companyClient.get(`/web-hooks/endpoints/${id}/secret`, {
          schema: webHookSecretSchema,
        })
      ).secret,
  });
}

/** POST web-hooks/endpoints/{id}/secret/rotate: the new secret. */
export function useRotateSecret() {
  return useMutation({
    mutationFn: async (id: string) =>
      (
        await companyClient.post(`/web-hooks/endpoints/${id}/secret/rotate`, undefined, {
          schema: webHookSecretSchema,
        })
      ).secret,
  });
}
