import { index, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  index("routes/home/home.tsx"),
  // The two sections share one module; the URL says which section it is.
  route("monastery", "routes/sections/section.tsx", { id: "monastery" }),
  route("battlefield", "routes/sections/section.tsx", { id: "battlefield" }),
  route("monastery/:topicId", "routes/sections/topic.tsx", { id: "monastery-topic" }),
  route("battlefield/:topicId", "routes/sections/topic.tsx", { id: "battlefield-topic" }),
  route("forge", "routes/forge/forge.tsx"),
  route("forge/:creationId", "routes/forge/creation.tsx"),
  route("council", "routes/council/council.tsx"),
  route("council/:questionId", "routes/council/question.tsx"),
  route("join", "routes/account/join.tsx"),
  route("signin", "routes/account/sign-in.tsx"),
  route("signout", "routes/account/sign-out.tsx"),
  route("dashboard", "routes/account/dashboard.tsx"),
  route("newsletter", "routes/resources/newsletter.tsx"),
  route("newsletter/confirm", "routes/resources/newsletter-token.tsx", { id: "newsletter-confirm" }),
  route("newsletter/unsubscribe", "routes/resources/newsletter-token.tsx", { id: "newsletter-unsubscribe" }),
  route("manifesto", "routes/pages/manifesto.tsx"),
  route("ranks", "routes/pages/ranks.tsx"),
  route("events", "routes/pages/events.tsx"),
  route("faq", "routes/pages/faq.tsx"),
  route("terms", "routes/pages/terms.tsx"),
  route("privacy", "routes/pages/privacy.tsx"),
  route("code-of-conduct", "routes/pages/code-of-conduct.tsx"),
  route("*", "routes/pages/not-found.tsx"),
] satisfies RouteConfig;
