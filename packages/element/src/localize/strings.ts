/** Every UI string of the element; one object per language. */
export interface Strings {
  loading: string;
  payWithPix: string;
  payWithBoleto: string;
  steps: [string, string, string];
  qrLabel: (amount: string) => string;
  pixCode: string;
  copyCode: string;
  copied: string;
  copyManual: string;
  share: string;
  expiresIn: string;
  alreadyPaid: string;
  checking: string;
  notYet: string;
  retryIn: (seconds: number) => string;
  waiting: string;
  paidTitle: string;
  paidBody: string;
  expiredTitle: string;
  expiredBody: string;
  failedTitle: string;
  failedBody: string;
  canceledTitle: string;
  canceledBody: string;
  errorTitle: string;
  errorBody: string;
  notFound: string;
  retry: string;
  reconnecting: string;
  digitableLine: string;
  copyLine: string;
  barcodeLabel: string;
  openBoleto: string;
  dueDate: (date: string) => string;
  boletoSteps: string;
}
