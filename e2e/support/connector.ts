// An ERP connector as docs/api.md describes one: plain HTTP with nothing but an access key
// (`Authorization: Bearer`), the company in `Dataset-Id`, and an `Idempotency-Key` on creates.

export interface ConnectorCall {
  method?: string;
  json?: unknown;
  idempotencyKey?: string;
}

export interface Connector {
  call(path: string, init?: ConnectorCall): Promise<Response>;
  /** A call that must answer `status`; its JSON body. */
  expect<T>(status: number, path: string, init?: ConnectorCall): Promise<T>;
}

export function connector(siteUrl: string, accessKey: string, datasetId: number): Connector {
  const methodOf = (init: ConnectorCall) =>
    init.method ?? (init.json === undefined ? 'GET' : 'POST');
  async function call(path: string, init: ConnectorCall = {}): Promise<Response> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${accessKey}`,
      'dataset-id': String(datasetId),
      accept: 'application/json',
    };
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    if (init.idempotencyKey) headers['idempotency-key'] = init.idempotencyKey;
    return fetch(new URL(path, siteUrl), {
      method: methodOf(init),
      headers,
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
  }
  return {
    call,
    async expect<T>(status: number, path: string, init: ConnectorCall = {}): Promise<T> {
      const response = await call(path, init);
      const text = await response.text();
      if (response.status !== status) {
        throw new Error(
          `${methodOf(init)} ${path}: expected ${status}, got ${response.status} ${text}`,
        );
      }
      return (text ? JSON.parse(text) : null) as T;
    },
  };
}
