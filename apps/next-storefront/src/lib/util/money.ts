type ConvertToLocaleParams = {
  amount: number
  currency_code: string
  minimumFractionDigits?: number
  maximumFractionDigits?: number
  locale?: string
}

/** The starter's price formatter, with the guide's step 16: every price the app shows. */
export const convertToLocale = ({
  amount,
  currency_code,
  minimumFractionDigits,
  maximumFractionDigits,
  // Reais as Brazilians write them (R$ 1.234,56); other currencies as the starter had them.
  locale = currency_code?.toLowerCase() === "brl" ? "pt-BR" : "en-US",
}: ConvertToLocaleParams) => {
  return currency_code?.trim()
    ? new Intl.NumberFormat(locale, {
        style: "currency",
        currency: currency_code,
        minimumFractionDigits,
        maximumFractionDigits,
      }).format(amount)
    : amount.toString()
}
