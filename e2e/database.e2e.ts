import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { signInOverHttp } from './support/oidc-http.js';
import { startServer, type RunningServer } from './support/server.js';

// The embedded database survives what a user does to it.
describe('the embedded database', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  it('prints the address and how to sign in at the first start', () => {
    expect(server.output()).toContain(`Ledgerline is running at ${server.url}`);
    expect(server.output()).toContain(`Sign in as ${server.adminEmail}`);
  });

  it('refuses a second process on the same data folder with a clear message', async () => {
    const second = await startServer({ dataDir: server.dataDir, expectExit: true });
    expect(second.process.exitCode).toBe(1);
    expect(second.output()).toMatch(
      /data folder .* is in use by another Ledgerline process \(pid \d+\)/,
    );
    // The first one is unharmed.
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it('keeps committed data through kill -9 and a restart, and closes cleanly on SIGTERM', async () => {
    const session = await signInOverHttp(server.url, server.adminEmail, server.adminPassword);
    const settings = {
      timeZoneId: 'Tokyo Standard Time',
      use24Hour: false,
      shortDateFormat: 'dd.MM.yyyy',
      longDateFormat: 'MMMM d, yyyy',
      showAdvancedInfo: true,
    };
    const saved = await session.fetch('/api/v0/users/me/settings', {
      method: 'PUT',
      json: settings,
    });
    expect(saved.status).toBe(200);

    expect(await server.stop('SIGKILL')).toBeNull();
    server = await server.restart();
    expect(server.output()).not.toContain('Sign in as'); // no second demo tenant
    const again = await signInOverHttp(server.url, server.adminEmail, server.adminPassword);
    const me = await (await again.fetch('/api/v0/users/me')).json();
    expect(me.userSetting).toEqual(settings);

    expect(await server.stop('SIGTERM')).toBe(0);
    expect(existsSync(join(server.dataDir, 'ledgerline.lock'))).toBe(false);
    server = await server.restart();
    const third = await signInOverHttp(server.url, server.adminEmail, server.adminPassword);
    expect((await (await third.fetch('/api/v0/users/me')).json()).userSetting).toEqual(settings);
  });
});
