/**
 * The reports area's public entry: what other features may import from it (decision 168). Each
 * line says who uses it and why; a repository or service named here is an allowed crossing.
 */
// Service, allowed: the dashboard's receivables figures are the aged receivables report's.
export { dashboardFigures } from './reports.service.js';
