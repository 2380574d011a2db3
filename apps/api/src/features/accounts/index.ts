/**
 * The accounts area's public entry: what other features may import from it (decision 168). Each
 * line says who uses it and why; a repository or service named here is an allowed crossing.
 */
// The statements area answers an unknown account as the accounts calls do (one message).
export { accountNotFound } from './accounts.service.js';
