import {
  customHostIdExampleResponse,
  customHostIdSettingSchema,
  type CustomHostIdExampleBody,
  type CustomHostIdSetting,
  type UpdateCustomHostIdSettingBody,
} from '@ledgerline/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { companyQueryKeys } from '@/lib/query-keys';

const keys = () => companyQueryKeys('custom-host-id');
const settingKey = () => keys().detail('transaction');

/** A rebuild in these states is still running (spec 3 §4 "Custom host id rebuild"). */
export const isRebuildBusy = (setting: CustomHostIdSetting | undefined) =>
  setting?.rebuildState === 'QueuedForRebuild' || setting?.rebuildState === 'Rebuilding';

/** spec 3 §7 GET company-settings/custom-host-id; asked again every 2 s while a rebuild runs. */
export function useCustomHostIdSetting() {
  return useQuery({
    ...queryOptions({
      queryKey: settingKey(),
      queryFn: ({ signal }) =>
        companyClient.get('/company-settings/custom-host-id', {
          schema: customHostIdSettingSchema,
          signal,
        }),
    }),
    refetchInterval: (query) => (isRebuildBusy(query.state.data) ? 2000 : false),
  });
}

export function useUpdateCustomHostIdSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateCustomHostIdSettingBody) =>
      companyClient.put('/company-settings/custom-host-id', body, {
        schema: customHostIdSettingSchema,
      }),
    onSuccess: (saved) => queryClient.setQueryData(settingKey(), saved),
  });
}

/** The test parse: what a parse value makes of an example transaction; nothing is saved. */
export function useTestCustomHostIdParse() {
  return useMutation({
    mutationFn: (body: CustomHostIdExampleBody) =>
      companyClient.post('/company-settings/custom-host-id/example', body, {
        schema: customHostIdExampleResponse,
      }),
  });
}

export function useRebuildCustomHostIds() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      companyClient.post('/company-settings/custom-host-id/rebuild', undefined, {
        schema: customHostIdSettingSchema,
      }),
    onSuccess: (setting) => queryClient.setQueryData(settingKey(), setting),
  });
}
