/**
 * The auth area's public entry: what other features may import from it (decision 168). Each
 * line says who uses it and why; a repository or service named here is an allowed crossing.
 */
// The users area mails the single-use proof an external provider's first sign-in must bring.
export { createInvitationProofs } from './invitation-proof.js';
