import { describe, expect, it } from 'vitest';
import { spaceWords } from './words';

describe('spaceWords', () => {
  it.each([
    ['UpdateUserSettings', 'Update User Settings'],
    ['CreateDataset', 'Create Dataset'],
    ['QueuedForRebuild', 'Queued For Rebuild'],
    ['ResetAPIKey', 'Reset API Key'],
    ['Sage200Pro', 'Sage200 Pro'],
    ['signIn', 'Sign In'],
    ['Login', 'Login'],
    ['', ''],
  ])('%s → %s', (name, words) => {
    expect(spaceWords(name)).toBe(words);
  });
});
