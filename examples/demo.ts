// Placeholder until the search engine lands: prints the package name.
console.log("toolsift demo: search engine not built yet");
