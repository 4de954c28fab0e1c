import { createContext, useContext } from "react";

const NonceContext = createContext<string | undefined>(undefined);

/** Carries the CSP nonce from the server entry to the scripts React Router renders. */
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
