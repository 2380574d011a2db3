/**
 * A PascalCase or camelCase name spaced into words, for operations and enum values shown as text:
 * 'UpdateUserSettings' → 'Update User Settings', 'QueuedForRebuild' → 'Queued For Rebuild',
 * 'ResetAPIKey' → 'Reset API Key'.
 */
export function spaceWords(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/^./, (first) => first.toUpperCase())
    .trim();
}
