/**
 * The transactions area's public entry: what other features may import from it (decision 168). Each
 * line says who uses it and why; a repository or service named here is an allowed crossing.
 */
// Repository, allowed: company settings show and change the custom host id setting.
export { createCustomHostIdRepository } from './custom-host-id.repository.js';
// Service, allowed: as above.
export { createCustomHostIdService } from './custom-host-id.service.js';
// The company logo's file name is cleaned as a document's.
export { cleanFileName } from './file-kind.js';
// Repository, allowed: the money rules' fees are written as transactions.
export { createTransactionsRepository } from './transactions.repository.js';
