"""Language-model access: the protocol, litellm, scripted and recorded models, token counts."""
