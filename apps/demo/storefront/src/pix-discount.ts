/** The Pix discount as the plugin's payment-method route tells it (amounts in integer cents). */
export interface PixDiscount {
  enabled: boolean;
  type: "percentage" | "fixed";
  value: number;
  saved: number;
}
