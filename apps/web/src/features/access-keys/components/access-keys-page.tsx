import { isFlagOn, useFeatureFlags } from '@/lib/feature-flags';
import { KeysScreen } from './keys-screen';

/**
 * spec 1 §2.1 /settings/access-keys: the access keys screen with the NewAccessKeyPage flag,
 * otherwise the subscription keys screen.
 */
export function AccessKeysPage() {
  const flags = useFeatureFlags();
  const kind = isFlagOn(flags, 'NewAccessKeyPage') ? 'access' : 'subscription';
  return <KeysScreen key={kind} kind={kind} />;
}
