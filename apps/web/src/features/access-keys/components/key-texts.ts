import type { KeyKind } from '../api/key-kinds';

/** The wording of each screen; access keys and subscription keys differ only in their noun. */
export const keyTexts = {
  access: {
    title: 'Access Keys',
    noun: 'access key',
    createButton: 'Create Access Key',
    createTitle: 'Create Access Key',
    editTitle: 'Edit Access Key',
    deleteTitle: 'Delete Access Key',
    createdTitle: 'Access key created',
    keyLabel: 'Access key',
    added: 'Access key successfully added',
    updated: 'Access key successfully updated',
    deleted: 'Access key successfully deleted',
    getFailed: 'An error occurred while getting the access keys',
    createFailed: 'An error occurred while creating the access key: ',
    updateFailed: 'An error occurred while updating the access key: ',
    deleteFailed: 'An error occurred while deleting the access key: ',
    empty: 'No access keys yet',
  },
  subscription: {
    title: 'Subscription Keys',
    noun: 'subscription key',
    createButton: 'Create Subscription Key',
    createTitle: 'Create Subscription Key',
    editTitle: 'Edit Subscription Key',
    deleteTitle: 'Delete Subscription Key',
    createdTitle: 'Subscription key created',
    keyLabel: 'Subscription key',
    added: 'Subscription key successfully added',
    updated: 'Subscription key successfully updated',
    deleted: 'Subscription key successfully deleted',
    getFailed: 'An error occurred while getting the subscription keys',
    createFailed: 'An error occurred while creating the subscription key: ',
    updateFailed: 'An error occurred while updating the subscription key: ',
    deleteFailed: 'An error occurred while deleting the subscription key: ',
    empty: 'No subscription keys yet',
  },
} as const satisfies Record<KeyKind, Record<string, string>>;

/** The server's answer when the tenant already has the maximum number of keys. */
export const maximumKeyCountReached = 'maximumKeyCountReached';
