const units = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** spec 2 §2, §9: file sizes in B, KB, MB, GB, TB with thousand-based steps ('1.5 MB'). */
export function formatFileSize(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const shown =
    unit === 0 ? String(value) : value.toLocaleString('en-GB', { maximumFractionDigits: 1 });
  return `${shown} ${units[unit]}`;
}
