<#ftl output_format="plainText">
${msg("tenantRegistryInvitationSignInBody", organizationName)}

${link}

${msg("tenantRegistryInvitationSignInExpiry", linkExpirationFormatter(linkExpiration))}

${msg("tenantRegistryInvitationSignInIgnore")}
