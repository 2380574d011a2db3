/**
 * The datasets area's public entry: what other features may import from it (decision 168). Each
 * line says who uses it and why; a repository or service named here is an allowed crossing.
 */
// What an area copies into a new company from its copy-from company.
export type { ConfigurationCopier } from './copy-configuration.repository.js';
