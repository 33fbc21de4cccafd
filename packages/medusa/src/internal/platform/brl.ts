// Reais as text: the shared writer (@pix-checkout/client/books, the Vendure plugin's too), under
// the name the admin's payment link, the payment page and the alert e-mail import it by (their
// docs' pictures are fingerprinted by their sources; re-take them when these imports move).
export { brl, centsToText } from "@pix-checkout/client/books";
