/** UK banks with the sort-code range and IBAN bank code they really use. */
const ukBanks = [
  { bankName: 'Barclays', ibanCode: 'BARC', sortCodePrefix: '20' },
  { bankName: 'HSBC', ibanCode: 'HBUK', sortCodePrefix: '40' },
  { bankName: 'Lloyds Bank', ibanCode: 'LOYD', sortCodePrefix: '30' },
  { bankName: 'NatWest', ibanCode: 'NWBK', sortCodePrefix: '60' },
] as const;

/** ISO 13616 check digits: the IBAN with 00, rearranged, letters as numbers, 98 − (mod 97). */
function ibanOf(country: string, bban: string): string {
  const digits = `${bban}${country}00`.replace(/[A-Z]/g, (letter) =>
    String(letter.charCodeAt(0) - 55),
  );
  let remainder = 0;
  for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  return `${country}${String(98 - remainder).padStart(2, '0')}${bban}`;
}

/** A company bank account whose bank name, sort code and IBAN agree. */
export function demoBank(i: number) {
  const bank = ukBanks[(i - 1) % ukBanks.length]!;
  const sortCode = `${bank.sortCodePrefix}${String((i * 37) % 100).padStart(2, '0')}${String((i * 53) % 100).padStart(2, '0')}`;
  const accountNumber = String((i * 7919 * 1013) % 100_000_000).padStart(8, '0');
  const currency = (['GBP', 'GBP', 'EUR', 'USD'] as const)[(i - 1) % 4]!;
  return {
    accountName: (
      ['Current Account', 'Collections Account', 'Euro Account', 'Dollar Account'] as const
    )[(i - 1) % 4]!,
    currency,
    description: `Company account ${i}`,
    accountNumber,
    sortCode: `${sortCode.slice(0, 2)}-${sortCode.slice(2, 4)}-${sortCode.slice(4, 6)}`,
    iban: ibanOf('GB', `${bank.ibanCode}${sortCode}${accountNumber}`),
    bankName: bank.bankName,
  };
}
