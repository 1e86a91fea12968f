/** SPEC §2.6 Payment: whole Ugandan shillings, e.g. 'USh 5,000'. */
const UGX = new Intl.NumberFormat("en-UG", { style: "currency", currency: "UGX", maximumFractionDigits: 0 });
const COUNT = new Intl.NumberFormat("en-UG");

/** A whole UGX amount as shown in the report, e.g. 'USh 12,500'. */
export function formatUgx(amount: number): string {
  return UGX.format(amount);
}

/** A count with thousands separators, e.g. '1,204'. */
export function formatCount(count: number): string {
  return COUNT.format(count);
}

/** SPEC §2.6 Submissions (%): two decimals, e.g. '66.67%'. */
export function formatPercent(value: number): string {
  return `${value.toFixed(2)}%`;
}

const MINUTES = new Intl.NumberFormat("en-UG", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** Audio minutes (a number of minutes) as the report shows them: one decimal with thousands separators, e.g. '1,204.5'. */
export function formatMinutes(minutes: number): string {
  return MINUTES.format(minutes);
}
