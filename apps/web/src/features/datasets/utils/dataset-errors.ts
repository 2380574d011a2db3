import { messages } from '@ledgerline/contract';

/** spec 1 §5: the duplicate codes of a 409 (`errors.hostId`, `errors.customHostId`) as sentences. */
export const datasetErrorTexts: Record<string, string> = {
  [messages.datasetHostIdExists]: 'A company with this host id already exists.',
  [messages.datasetCustomHostIdExists]: 'A company with this custom host id already exists.',
};

export function datasetErrorText(code: string): string {
  return datasetErrorTexts[code] ?? code;
}

/** Toasts of the companies page. */
export const datasetMessages = {
  created: 'Company successfully created',
  updated: 'Company successfully updated',
  deleting: 'The company is being deleted',
  resetting: 'The demo data is being reset',
  createFailed: 'An error occurred while creating the company: ',
  updateFailed: 'An error occurred while updating the company: ',
  deleteFailed: 'An error occurred while deleting the company: ',
  resetFailed: 'An error occurred while resetting the demo data: ',
} as const;
