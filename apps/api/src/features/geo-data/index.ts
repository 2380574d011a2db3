/**
 * The geo-data area's public entry: what other features may import from it (decision 168). Each
 * line says who uses it and why; a repository or service named here is an allowed crossing.
 */
// The one country list, for company settings and the payer page's address.
export { findCountry } from './geo-data.routes.js';
