/** Known short and long date formats (date-fns tokens), spec 1 §3 and spec 3 §9. */
export const shortDateFormats = [
  'yyyy/MM/dd',
  'yyyy-MM-dd',
  'dd/MM/yyyy',
  'd/M/yyyy',
  'MM/dd/yyyy',
  'M/d/yyyy',
  'dd-MM-yyyy',
  'dd.MM.yyyy',
] as const;

export const longDateFormats = [
  'd MMMM yyyy',
  'dd MMMM yyyy',
  'MMMM d, yyyy',
  'MMM d, yyyy',
  'd MMM yyyy',
  'EEEE, d MMMM yyyy',
  'EEEE, MMMM d, yyyy',
  'yyyy/MM/dd',
] as const;

export const defaultUserSetting = {
  timeZoneId: 'GMT Standard Time',
  use24Hour: true,
  shortDateFormat: 'yyyy/MM/dd',
  longDateFormat: 'd MMMM yyyy',
  showAdvancedInfo: false,
} as const;

/** spec 2 §2: the example date for previews is 8 April 2020 15:30. */
export const exampleDate = new Date(2020, 3, 8, 15, 30, 0);

export const timeFormat24 = 'HH:mm:ss';
export const timeFormat12 = 'h:mm:ss aaa';
