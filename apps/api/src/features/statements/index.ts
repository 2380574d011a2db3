/**
 * The statements area's public entry: what other features may import from it (decision 168). Each
 * line says who uses it and why; a repository or service named here is an allowed crossing.
 */
// Each reminder mail carries a new statement link of its account.
export { issueStatementLink } from './statement-links.js';
