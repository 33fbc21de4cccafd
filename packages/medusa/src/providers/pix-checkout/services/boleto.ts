import { PixCheckoutBase } from "../core/pix-checkout-base";
import { parseOptions, type PixCheckoutOptions } from "../../../internal/platform/options";

/** Boleto (Variant A only): a bank slip with a due date. Provider id `pp_boleto_<id>`. */
export class PixCheckoutBoletoService extends PixCheckoutBase {
  static override identifier = "boleto";
  protected readonly method = "boleto" as const;

  /** Fails Medusa's startup for Variant B, which has no boleto. */
  static override validateOptions(options: Record<string, unknown>): void {
    parseOptions(options, ["boleto"]);
  }

  constructor(cradle: Record<string, unknown>, options: PixCheckoutOptions) {
    super(cradle, options);
  }
}
