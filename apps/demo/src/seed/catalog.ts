// What the demo store sells and how it ships, as data. Prices are integer cents (BRL);
// images are SVG files the store itself serves from apps/demo/static.

/** One product of the demo catalog. */
export interface DemoProduct {
  handle: string;
  title: string;
  description: string;
  image: string;
  /** Option title and its values; products without options get a single default variant. */
  option?: { title: string; values: string[] };
  priceCents: number;
  sku: string;
}

/** The products the seed makes sure exist, found again by handle on every run. */
export const demoProducts: DemoProduct[] = [
  {
    handle: "cafe-especial",
    title: "Café especial 250 g",
    description: "Grãos torrados no Sul de Minas, notas de chocolate e caramelo.",
    image: "cafe-especial.svg",
    option: { title: "Moagem", values: ["Grãos", "Moído"] },
    priceCents: 3990,
    sku: "CAFE-250",
  },
  {
    handle: "camiseta-pix",
    title: "Camiseta Pix Checkout",
    description: "Algodão orgânico, estampa com o QR mais famoso do Brasil.",
    image: "camiseta-pix.svg",
    option: { title: "Tamanho", values: ["P", "M", "G"] },
    priceCents: 7990,
    sku: "CAMISETA-PIX",
  },
  {
    handle: "caneca-esmaltada",
    title: "Caneca esmaltada",
    description: "Caneca de ágata de 350 ml, para o café da manhã e para o acampamento.",
    image: "caneca-esmaltada.svg",
    priceCents: 5490,
    sku: "CANECA-350",
  },
  {
    handle: "rede-de-descanso",
    title: "Rede de descanso",
    description: "Rede de algodão tecida no Ceará, com varandas de crochê.",
    image: "rede-de-descanso.svg",
    priceCents: 18900,
    sku: "REDE-CE",
  },
];

/** One flat-rate shipping option, found again by name on every run. */
export interface DemoShippingOption {
  name: string;
  code: string;
  description: string;
  priceCents: number;
}

/** Shipping options offered to every Brazilian address. */
export const demoShippingOptions: DemoShippingOption[] = [
  { name: "PAC", code: "pac", description: "Entrega em 5 a 8 dias úteis.", priceCents: 1500 },
  { name: "SEDEX", code: "sedex", description: "Entrega em 1 a 2 dias úteis.", priceCents: 2990 },
];

/** Names the seed looks entities up by, so a second run finds what the first made. */
export const demoNames = {
  salesChannel: "Default Sales Channel",
  region: "Brasil",
  stockLocation: "Depósito São Paulo",
  fulfillmentSet: "Entregas Brasil",
  serviceZone: "Brasil",
  publishableKey: "Pix Checkout demo storefront",
} as const;

/** Medusa's built-in provider, enabled when the plugin is not registered yet. */
export const systemProviderId = "pp_system_default";
