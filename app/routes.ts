import { index, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  index("routes/home/home.tsx"),
  route("forge", "routes/forge/forge.tsx"),
  route("forge/:creationId", "routes/forge/creation.tsx"),
  route("council", "routes/council/council.tsx"),
  route("council/:questionId", "routes/council/question.tsx"),
  route("join", "routes/account/join.tsx"),
  route("signin", "routes/account/sign-in.tsx"),
  route("signout", "routes/account/sign-out.tsx"),
  route("forgot-password", "routes/account/forgot-password.tsx"),
  route("reset-password", "routes/account/reset-password.tsx"),
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
  // The Monastery and the Battlefield share these modules; any other :section is a 404. Static
  // routes above always win over these dynamic ones.
  route(":section", "routes/sections/section.tsx"),
  route(":section/new", "routes/sections/new-topic.tsx"),
  route(":section/:topicId", "routes/sections/topic.tsx"),
  route(":section/:topicId/new", "routes/sections/new-discussion.tsx"),
  route(":section/:topicId/:discussionRef", "routes/sections/discussion.tsx"),
  route("*", "routes/pages/not-found.tsx"),
] satisfies RouteConfig;
