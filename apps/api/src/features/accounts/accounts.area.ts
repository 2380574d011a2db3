import { area, type Area } from '../../platform/area.js';
import { accountsRoutes } from './accounts.routes.js';

/** Accounts: the company's customers, their balances and contacts. */
export function accountsArea(): Area {
  return area({}, async (app) => {
    await app.register(accountsRoutes);
  });
}
