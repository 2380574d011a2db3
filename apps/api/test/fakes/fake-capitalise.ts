import { startFakeServer, type FakeServer } from './fake-server.js';

/**
 * Capitalise's funding search as reference/providers.md gives it: a page at
 * `/app/questionnaire/funding/search?introducer={INTRODUCER_KEY}` meant to be framed. Capitalise
 * documents no server API for it, so this fake serves only that page (it names the introducer it
 * was opened with), and 404 for anything else.
 */
export function startFakeCapitalise(): Promise<FakeServer> {
  return startFakeServer((request, response) => {
    if (request.method === 'GET' && request.path === '/app/questionnaire/funding/search') {
      const introducer = request.query.get('introducer') ?? '';
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><title>Funding search</title><h1>Find funding for your business</h1>` +
          `<p data-introducer="${introducer.replace(/[^A-Za-z0-9_-]/g, '')}">Introduced by ${introducer.replace(/[^A-Za-z0-9_-]/g, '')}</p>`,
      );
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('Not found');
  });
}
